#include "HapticTick.h"

void HapticTick::start()
{
    next_ = micros();
}

bool HapticTick::due()
{
    /* unsigned difference: right across micros()'s wrap every 71.6 minutes */
    uint32_t late = micros() - next_;
    if (late > 0x80000000UL) {
        return false; /* not yet */
    }
    if (late > HAPTIC_MAX_BACKLOG_US) {
        /* keep the phase of the schedule, drop whole periods of the backlog */
        next_ += (late - HAPTIC_MAX_BACKLOG_US) / periodMicros * periodMicros;
        slips_++;
    }
    return true;
}

bool HapticTick::near(uint32_t within) const
{
    uint32_t ahead = next_ - micros(); /* time to the next due time; wraps past 2^31 once it is due */
    return ahead <= within || ahead > 0x80000000UL;
}

uint16_t HapticTick::subtick() const
{
    uint32_t elapsed = micros() - (next_ - periodMicros);
    if (elapsed >= periodMicros) {
        return 0xFFFFu;
    }
    /* elapsed x 65536 / 1000 as a multiply and a shift (a 32-bit division costs an AVR about 600
     * cycles): floor(65536 x 128 / 1000) = 8388 reads at most 5/65536 low, never 65536 */
    return (uint16_t)((elapsed * 8388UL) >> 7);
}
