/* The 1 kHz tick from micros(): step k is due at t0 + k x 1,000 us, t0 being the time of start().
 * Whoever calls poll() runs the steps that are due, so a step runs late by however long the
 * sketch's loop() takes to come back to poll(), never early, and the schedule itself never
 * drifts (micros() is the board's crystal): the values output are those of the model tick for
 * tick, only the wall time of each tick jitters (hardware/arduino/README.md, "Timing").
 *
 * Catch-up is bounded: one call runs at most HAPTIC_MAX_STEPS_PER_POLL due steps, the rest wait
 * for the next call; and if the sketch stalls for more than HAPTIC_MAX_BACKLOG_US, the schedule
 * slips (the steps beyond that backlog are not run, so device time falls behind the wall clock
 * by as much) and slips() counts the occasions. */
#ifndef HAPTIC_TICK_H
#define HAPTIC_TICK_H

#include <Arduino.h>

#ifndef HAPTIC_MAX_STEPS_PER_POLL
#define HAPTIC_MAX_STEPS_PER_POLL 4u
#endif
#ifndef HAPTIC_MAX_BACKLOG_US
#define HAPTIC_MAX_BACKLOG_US 20000UL
#endif

class HapticTick
{
  public:
    static const uint32_t periodMicros = 1000UL; /* 1 kHz: the protocol's rate (PROTOCOL.md 1.2) */

    /* Step 0 is due now. */
    void start();

    /* Whether the next step is due (checks the backlog, and slips the schedule past it). */
    bool due();

    /* The step that was due has run: the next one is due a period later. */
    void advance()
    {
        next_ += periodMicros;
    }

    /* Whether the next step is due within `micros` (or already). */
    bool near(uint32_t micros) const;

    /* Time since the last step's due time, in 1/65536 of a tick (PONG's subtick, PROTOCOL.md
     * 2.11): read between steps, when that time is under a tick; saturates at 65535. */
    uint16_t subtick() const;

    /* Times the schedule slipped past a stall longer than HAPTIC_MAX_BACKLOG_US. */
    uint16_t slips() const
    {
        return slips_;
    }

  private:
    uint32_t next_ = 0; /* micros() at which the next step is due */
    uint16_t slips_ = 0;
};

#endif
