/* A test sketch (ArduinoLibraryStackTests): the DRV2605L example with a template size of its own,
 * one slot of 384 bytes (the bare-metal firmware's longest programs fit) and the 128-byte ring:
 * the same RAM as the default two of 192, which the stack check accepts. */
#include <HapticBridge.h>
#include <HapticDRV2605L.h>

HapticDRV2605L driver(Wire);
HapticBridgeWith<1, 384, 128> haptic;

void setup()
{
    haptic.begin(Serial, 500000, driver, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
}

void loop()
{
    haptic.poll();
}
