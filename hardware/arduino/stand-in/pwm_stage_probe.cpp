/* The library's PWM stages (HapticMotor.cpp) on the host, against the stand-in's analogWrite(), for
 * ArduinoLibraryPWMLimitTests: the same sweep as the bare-metal stage's PWMLimitTests.
 *
 * Usage: pwm_stage_probe erm|hbridge lra|erm RATED_MV OVERDRIVE_MV SUPPLY_MV < samples
 * Input: one sample a line, "AMP SHARP FLAGS"; a line "begin" starts the stage again (a new play).
 * Output: after each begin, "begin OK FAULT RATED_DUTY OVERDRIVE_DUTY"; after each sample, the duties
 * on the two pins, "FORWARD REVERSE" (the MOSFET stage's only pin is FORWARD). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "Arduino.h"
#include "HapticMotor.h"

/* The Arduino API the stages use, recording what analogWrite() gave each pin (stand_in.cpp's
 * definitions do nothing and bring a main() of their own). */
static int hb_stand_in_analog[64];

void pinMode(uint8_t, uint8_t)
{
}
void digitalWrite(uint8_t, uint8_t)
{
}
void analogWrite(uint8_t pin, int value)
{
    if (pin < 64u) {
        hb_stand_in_analog[pin] = value;
    }
}

int main(int argc, char **argv)
{
    if (argc != 6) {
        fprintf(stderr, "usage: pwm_stage_probe erm|hbridge lra|erm RATED_MV OVERDRIVE_MV SUPPLY_MV\n");
        return 2;
    }
    const bool bridge = strcmp(argv[1], "hbridge") == 0;
    const uint8_t kind = (uint8_t)(strcmp(argv[2], "lra") == 0 ? HAPTIC_ACTUATOR_LRA : HAPTIC_ACTUATOR_ERM);
    HapticProfile profile = {"probe", kind, 0, 0, 0, (uint16_t)atoi(argv[3]), (uint16_t)atoi(argv[4])};
    const uint16_t supply = (uint16_t)atoi(argv[5]);
    HapticERM mosfet(9, supply);
    HapticHBridge hbridge(9, 10, supply);
    HapticPWMStage &stage =
        bridge ? static_cast<HapticPWMStage &>(hbridge) : static_cast<HapticPWMStage &>(mosfet);
    HapticOutput &output =
        bridge ? static_cast<HapticOutput &>(hbridge) : static_cast<HapticOutput &>(mosfet);
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        if (strncmp(line, "begin", 5) == 0) {
            bool ok = output.begin(profile);
            printf("begin %d %u %u %u\n", ok ? 1 : 0, output.fault(), stage.ratedDuty(),
                   stage.overdriveDuty());
            continue;
        }
        unsigned amp, sharp, flags;
        if (sscanf(line, "%u %u %u", &amp, &sharp, &flags) != 3) {
            fprintf(stderr, "pwm_stage_probe: bad line: %s", line);
            return 2;
        }
        output.write((uint8_t)amp, (uint8_t)sharp, (uint8_t)flags);
        printf("%d %d\n", hb_stand_in_analog[9], bridge ? hb_stand_in_analog[10] : 0);
    }
    return 0;
}
