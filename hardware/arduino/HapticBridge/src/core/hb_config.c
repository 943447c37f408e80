#include "hb_config.h"

void hb_config_default(hb_config *cfg)
{
    cfg->max_body = HB_DEFAULT_MAX_BODY;
    cfg->safety_ticks = HB_DEFAULT_SAFETY_TICKS;
    cfg->rate = HB_DEFAULT_RATE;
    cfg->brake_ticks = HB_DEFAULT_BRAKE_TICKS;
    cfg->safety_threshold = HB_DEFAULT_SAFETY_THRESHOLD;
}
