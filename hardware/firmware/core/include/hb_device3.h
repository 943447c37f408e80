/* The protocol 3.0 device (firmware-protocol/PROTOCOL-3.md): channels (3.2), a pool of players
 * (3.3-3.7), the work budget (3.9), the 3.0 messages (3.11) and the stream on a player (3.12),
 * beside the 2.0 device (hb_device.h), whose session it reuses: it embeds an hb_session for the
 * frame layer, the duplicate and flow-control rules, UPLOAD/COMMIT's slots, the stream ring and
 * credit, the output stage's wake-up and the watchdog, and calls 2.0's functions for them (its
 * interpreter part is the one the players share; 2.0's pending play and records stay unused).
 *
 * No allocation: the board owns the hb_device3, the program memory and the ring, as for 2.0.
 *
 *     hb_device3_init(&dev, &config, memory, ring, uart_write, NULL);   // sends RESET 3.0
 *     between ticks:  hb_device3_receive(&dev, bytes, n)
 *     every tick:     hb_device3_step(&dev, samples); one sample per channel, output together
 *
 * A step sends its notices itself (TELEMETRY, CREDIT), in the step. */
#ifndef HB_DEVICE3_H
#define HB_DEVICE3_H

#include <stdint.h>

#include "hb_device.h"
#include "hb_messages3.h"
#include "hb_player.h"
#include "hb_port.h" /* HB_DEVICE3_MAX_CHANNELS, HB_DEVICE3_MAX_PLAYERS */

/* One channel's actuator and output stage (3.2). */
typedef struct hb_channel_config {
    const char *profile_name; /* ASCII, up to 16 characters reported; NULL: none */
    uint32_t safety_ticks;
    uint16_t profile_id;
    uint16_t brake_ticks; /* B */
    uint16_t rated_mv;
    uint16_t limit_mv;
    uint16_t wake_ticks;
    uint8_t actuator; /* HB_ACTUATOR_* */
    uint8_t stage;    /* 0 none, 1 PWM, 2 DRV2605L, 3 DRV2605L behind a TCA9548A */
    uint8_t safety_threshold;
    uint8_t caps; /* bit 0 SHARPNESS, 1 ACTIVE_BRAKE, 2 DIAG */
} hb_channel_config;

typedef struct hb_device3_config {
    hb_device_config base; /* the device-wide parts of 2.16; its per-channel fields are not used */
    const hb_channel_config *channels; /* channel_count of them */
    uint8_t channel_count;             /* 1..HB_DEVICE3_MAX_CHANNELS */
    uint8_t players;                   /* 1..HB_DEVICE3_MAX_PLAYERS */
    uint8_t work_budget;               /* E (3.9) */
    uint8_t fade_ticks;                /* R at boot (3.7) */
} hb_device3_config;

/* A channel's state: the limiter's count and its stage fault (3.2, 3.6). */
typedef struct hb_channel3 {
    uint32_t full;
    uint8_t fault;      /* the board's stage fault now, 0: none */
    uint8_t fault_sent; /* the one last reported */
} hb_channel3;

typedef struct hb_device3 {
    hb_session dev; /* first: the session the 3.0 dispatch gets back from hb_session */
    const hb_device3_config *cfg;
    hb_player players[HB_DEVICE3_MAX_PLAYERS];
    hb_channel3 channels[HB_DEVICE3_MAX_CHANNELS];
    uint32_t stopped; /* players whose TELEMETRY STOPPED follows the command's ACK */
    uint32_t sync;    /* SET_CONFIG SYNC's value (role | N << 16) */
    uint16_t sync_phase;
    int16_t trim; /* tau, ppm (3.10) */
    uint8_t slot_peak[HB_DEVICE_MAX_SLOTS];
    uint8_t fade; /* R */
} hb_device3;

/* Boots the device (RESET 3.0). Returns 0 (sending nothing) if the base configuration is refused
 * (hb_device_init's rules) or the channel or player count is 0 or above its table. */
uint8_t hb_device3_init(hb_device3 *d, const hb_device3_config *cfg, uint8_t *program_memory,
                        uint8_t *stream_ring, hb_device_tx_fn tx, void *ctx);

void hb_device3_receive_byte(hb_device3 *d, uint8_t byte);
void hb_device3_receive(hb_device3 *d, const uint8_t *bytes, uint16_t length);

/* One device step (3.8): every channel's sample of tick `now` into samples[0..channel_count). */
void hb_device3_step(hb_device3 *d, hb_sample *samples);

/* Channel `channel`'s output-stage fault (2.18), or none (0), between steps (3.2, 3.8 step 1). */
void hb_device3_set_stage_fault(hb_device3 *d, uint8_t channel, uint8_t code);

/* The trim in force (3.10), for the board's tick (hb_trim.h). */
int16_t hb_device3_trim(const hb_device3 *d);

#endif
