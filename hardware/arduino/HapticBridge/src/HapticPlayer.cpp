#include "HapticPlayer.h"

bool HapticPlayer::begin(HapticOutput &output, const HapticProfile &profile)
{
    output_ = &output;
    bool ok = output.begin(profile);
    ready_ = ok;
    hb_config_default(&config_);
    hb_interp_init(&interp_, &config_);
    tick_.start();
    return ok;
}

uint8_t HapticPlayer::play(const uint8_t *program, uint16_t length)
{
    return hb_interp_load(&interp_, program, length);
}

void HapticPlayer::stop(bool brake)
{
    hb_interp_stop(&interp_, brake ? 1u : 0u);
}

void HapticPlayer::setScale(uint8_t scale)
{
    hb_interp_set_scale(&interp_, scale);
}

bool HapticPlayer::playing() const
{
    return hb_interp_status(&interp_).mode != HB_MODE_IDLE;
}

void HapticPlayer::poll()
{
    if (output_ == nullptr) {
        return; /* before begin() */
    }
    for (uint8_t n = 0; n < HAPTIC_MAX_STEPS_PER_POLL && tick_.due(); n++) {
        tick_.advance();
        hb_sample s = hb_interp_step(&interp_);
        if (!ready_ || output_->fault() != 0u) {
            /* a stage that failed never drives: the program stops, the stage gets silence */
            hb_interp_stop(&interp_, 0u);
            s.amp = s.sharp = s.flags = 0;
        }
        output_->write(s.amp, s.sharp, s.flags);
    }
}
