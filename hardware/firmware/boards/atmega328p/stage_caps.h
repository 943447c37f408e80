/* What an output stage renders for the actuator profile in scope (profiles/<name>.h, through
 * board.h), as INFO's capability bits (PROTOCOL.md 2.6) and CHANNEL_INFO's caps (PROTOCOL-3.md 3.2):
 * SHARPNESS: the stage renders the sharpness code (the PWM stage as an LRA carrier frequency
 * when the profile's band is not a single frequency, or as the strength of its kick and brake
 * when the profile renders edges; the DRV2605L's automatic edges do not depend on it).
 * ACTIVE_BRAKE: brake ticks drive against the motion (the PWM stage on an H-bridge, for a
 * bidirectional profile; the DRV2605L brakes by itself in closed loop). */
#ifndef HB_STAGE_CAPS_H
#define HB_STAGE_CAPS_H

#include "board.h"
#include "hb_messages.h"

#if defined(HB_BOARD_LRA)
#define HB_STAGE_ACTUATOR HB_ACTUATOR_LRA
#else
#define HB_STAGE_ACTUATOR HB_ACTUATOR_ERM
#endif
#if defined(HB_BOARD_PWM)                          \
    && (HB_PROFILE_F_MIN_HZ != HB_PROFILE_F_MAX_HZ \
        || (HB_PROFILE_MIN_EDGE_Q8 < 256u && (HB_PROFILE_KICK_MS != 0u || HB_PROFILE_BRAKE_MS != 0u)))
#define HB_STAGE_CAP_SHARPNESS HB_CAP_SHARPNESS
#else
#define HB_STAGE_CAP_SHARPNESS 0u
#endif
#if defined(HB_BOARD_DRV2605L) || (HB_PROFILE_BIDIRECTIONAL && HB_PROFILE_BRAKE_MS != 0u)
#define HB_STAGE_CAP_BRAKE HB_CAP_ACTIVE_BRAKE
#else
#define HB_STAGE_CAP_BRAKE 0u
#endif

#endif
