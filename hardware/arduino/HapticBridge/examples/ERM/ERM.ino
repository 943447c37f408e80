/* HapticBridge device driving an ERM (vibration motor) with analogWrite, on a MOSFET or an
 * H-bridge.
 *
 * MOSFET (drive and coast): pin 9 -> 220 ohm -> gate of a logic-level N-MOSFET (e.g. AO3400,
 * IRLZ44N); source -> GND; drain -> motor (-); motor (+) -> the motor supply (3 V for a 3 V coin
 * motor); a flyback diode (1N4148 or Schottky) across the motor, cathode to (+).
 *
 * H-bridge (drive and brake), e.g. a DRV8833 breakout: pin 9 -> AIN1, pin 10 -> AIN2,
 * AOUT1 / AOUT2 -> the motor, VM -> the motor supply, GND -> GND, nSLEEP -> VCC.
 * Uncomment USE_H_BRIDGE below. Pins 9 and 10 are PWM pins on an Uno or Nano; use any two PWM
 * pins elsewhere.
 *
 * Upload, then from the host:  haptic play preset:impact.medium --port /dev/ttyACM0 */
#include <HapticBridge.h>

// #define USE_H_BRIDGE

#ifdef USE_H_BRIDGE
HapticHBridge motor(9, 10);
const HapticProfile &profile = HapticProfiles::ERM_CYLINDER_7MM;
#else
HapticERM motor(9);
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
