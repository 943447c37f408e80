/* A test sketch (ArduinoLibraryStackTests): two slots of 256 bytes and the 128-byte ring, the
 * bare-metal firmware's slots, leave an Uno's stack no room beyond its measured worst: it must not
 * compile (HapticBridgeWith's static_assert, with the figures). */
#include <HapticBridge.h>
#include <HapticDRV2605L.h>

HapticDRV2605L driver(Wire);
HapticBridgeWith<2, 256, 128> haptic;

void setup()
{
    haptic.begin(Serial, 500000, driver, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
}

void loop()
{
    haptic.poll();
}
