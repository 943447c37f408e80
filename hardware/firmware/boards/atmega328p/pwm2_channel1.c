/* Channel 1 of the two-bridge 3.0 image: pwm2_channel.h. */
#define HB_PWM_CHANNEL 1
#include "pwm2_channel.h"
