/* A test sketch (ArduinoLibraryFaultTests): an H-bridge stage given an LRA profile, which unipolar
 * PWM cannot drive safely. begin() returns false, the pins stay low, and the host hears 76
 * UNSUPPORTED for every play. */
#include <HapticBridge.h>

HapticHBridge motor(9, 10, 5000);
HapticBridge haptic;

void setup()
{
    haptic.begin(Serial, 500000, motor, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
}

void loop()
{
    haptic.poll();
}
