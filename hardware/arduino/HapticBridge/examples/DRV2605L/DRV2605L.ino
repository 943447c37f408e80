/* HapticBridge device with a DRV2605L driving an LRA (or an ERM: change the profile).
 *
 * Wiring (any board; the common breakout runs from 3.3 V or 5 V):
 *   DRV2605L VIN -> 5V or 3.3V (2.0-5.2 V), GND -> GND,
 *   SDA -> the board's SDA (Uno/Nano: A4), SCL -> SCL (Uno/Nano: A5),
 *   EN -> D4, with a 10 kOhm pull-down to GND (the chip stays off through reset and the
 *   bootloader, and the library drops EN on any fault: a stop lands even with the bus lost; if the
 *   breakout ties EN high, cut that or pass HAPTIC_NO_PIN), OUT+ / OUT- -> the actuator.
 *
 * Upload, then from the host:  haptic play Examples/heartbeat.ahap --port /dev/ttyACM0
 * The port is the board's USB serial at 500,000 baud (exact on a 16 MHz AVR; `haptic` uses it by
 * default). */
#include <HapticBridge.h>
#include <HapticDRV2605L.h>

HapticDRV2605L driver(Wire); /* EN on D4: HapticDRV2605L driver(Wire, 4) */
HapticBridge haptic;

void setup()
{
    pinMode(LED_BUILTIN, OUTPUT);
    /* Calibrates the actuator (about 1.2 s), then opens Serial and sends RESET. */
    bool ready = haptic.begin(Serial, 500000, driver, HapticProfiles::LRA_DRV2605L_170HZ_10MM);
    /* Steady LED: the DRV2605L answered and calibrated. If it stays dark, the stage is off and
     * `haptic doctor` says why (the host hears the fault). */
    digitalWrite(LED_BUILTIN, ready ? HIGH : LOW);
}

void loop()
{
    haptic.poll();
    /* Your own code goes here: keep each pass short (under a millisecond) for on-time ticks. */
}
