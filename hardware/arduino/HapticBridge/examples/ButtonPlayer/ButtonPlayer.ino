/* Stored programs on a button, no host: each press plays the next program on a DRV2605L.
 *
 * Wiring: the DRV2605L as in the DRV2605L example (SDA, SCL, VIN, GND, EN on D4 with a pull-down); a push
 * button from pin 2 to GND (the internal pull-up holds the pin high).
 *
 * The programs are what `haptic compile` writes for the profile the stage drives, here
 * lra-drv2605l-170hz-10mm; to store your own pattern:
 *     haptic compile my-pattern.ahap --actuator lra-drv2605l-170hz-10mm -o my-pattern.bin
 *     xxd -i my-pattern.bin        (a C array to paste below)
 * Each is validated when it starts; play() returns the error code (PROTOCOL.md 1.16) if the bytes
 * are not a valid program. */
#include <HapticBridge.h>
#include <HapticDRV2605L.h>

/* haptic compile preset:impact.heavy --actuator lra-drv2605l-170hz-10mm (15 ms, one pulse) */
const uint8_t impactHeavy[] = {
    0x48, 0x50, 0x02, 0x00, 0xe8, 0x03, 0x04, 0x00, 0x00, 0x00,
    0x0f, 0x00, 0x00, 0x00, 0x67, 0x44, 0x80, 0xcf, 0x80, 0xef,
};
/* haptic compile preset:notification.success --actuator lra-drv2605l-170hz-10mm (94 ms, two taps) */
const uint8_t success[] = {
    0x48, 0x50, 0x02, 0x00, 0xe8, 0x03, 0x08, 0x00, 0x00, 0x00, 0x5e, 0x00,
    0x00, 0x00, 0x12, 0xe3, 0x80, 0x5c, 0x80, 0x9f, 0x31, 0xa3, 0x99, 0xee,
};
/* haptic compile Examples/heartbeat.ahap --actuator lra-drv2605l-170hz-10mm (168 ms, lub-dub) */
const uint8_t heartbeat[] = {
    0x48, 0x50, 0x02, 0x00, 0xe8, 0x03, 0x08, 0x00, 0x00, 0x00, 0xa8, 0x00,
    0x00, 0x00, 0x7c, 0x27, 0x80, 0xa3, 0x4d, 0x9f, 0x77, 0x40, 0x33, 0xf2,
};

struct Stored {
    const uint8_t *bytes;
    uint16_t length;
};
const Stored programs[] = {
    {impactHeavy, sizeof impactHeavy},
    {success, sizeof success},
    {heartbeat, sizeof heartbeat},
};
const uint8_t programCount = sizeof programs / sizeof programs[0];

const uint8_t buttonPin = 2;
const unsigned long debounceMs = 20;

HapticDRV2605L driver(Wire);
HapticPlayer player;

uint8_t next = 0;
bool pressed = false;
unsigned long changedAt = 0;

void setup()
{
    pinMode(buttonPin, INPUT_PULLUP);
    pinMode(LED_BUILTIN, OUTPUT);
    bool ready = player.begin(driver, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
    digitalWrite(LED_BUILTIN, ready ? HIGH : LOW);
}

void loop()
{
    player.poll();

    /* a press is the pin held low for debounceMs */
    bool down = digitalRead(buttonPin) == LOW;
    unsigned long now = millis();
    if (down != pressed && now - changedAt >= debounceMs) {
        pressed = down;
        changedAt = now;
        if (pressed) {
            player.play(programs[next].bytes, programs[next].length);
            next = (uint8_t)((next + 1) % programCount);
        }
    }
}
