/* Programs stored in the sketch, played without a host: the core's interpreter (PROTOCOL.md part
 * 1) ticking at 1 kHz on an output stage, nothing on the serial line.
 *
 * A program is the bytes `haptic compile` writes (PATTERN.ahap or preset:NAME, for the profile the
 * stage drives), kept in the sketch as an array (hardware/arduino/README.md shows how). play()
 * validates it in full (header, instructions, CRC) and starts it at the next tick; the array must
 * stay unchanged while it plays. poll() runs the due ticks, at most HAPTIC_MAX_STEPS_PER_POLL per
 * call, as HapticBridge::poll() does. */
#ifndef HAPTIC_PLAYER_H
#define HAPTIC_PLAYER_H

#include <Arduino.h>

#include "hb_port_config.h" /* first: it stops the build with a clear #error if src/core/ is missing */

extern "C" {
#include "core/hb_interp.h"
}

#include "HapticOutput.h"
#include "HapticTick.h"

class HapticPlayer
{
  public:
    /* Starts the output stage; returns its begin() (false: absent, or not made for the profile). */
    bool begin(HapticOutput &output, const HapticProfile &profile);

    /* Plays `program` from its first tick (whatever was playing ends without a brake), at full
     * scale. Returns 0, or the validation error (PROTOCOL.md 1.16), in which case it brakes. */
    uint8_t play(const uint8_t *program, uint16_t length);

    /* Stops the play: with `brake`, the brake samples first (PROTOCOL.md 1.13), else silence. */
    void stop(bool brake = true);

    /* Master scale 0..255 of the amplitude (1.11), from the next tick on. */
    void setScale(uint8_t scale);

    /* A program is playing or braking. */
    bool playing() const;

    void poll();

  private:
    hb_config config_;
    hb_interp interp_;
    HapticTick tick_;
    HapticOutput *output_ = nullptr;
    bool ready_ = false; /* the stage's begin() succeeded: else it gets only silence */
};

#endif
