/* From players to a channel's sample (firmware-protocol/PROTOCOL-3.md 3.6): the mixing rule (SUM
 * saturating and MAX, amplitude-weighted sharpness), the duck gains of priority, the brake rule
 * and the channel's limiter. */
#ifndef HB_MIX_H
#define HB_MIX_H

#include <stdint.h>

#include "hb_interp.h"
#include "hb_player.h"

/* One channel's contributions in one step. */
typedef struct hb_mix {
    uint32_t weighted; /* sum of amp_i * sharp_i: below 2^24 for up to 256 players */
    uint16_t weight;   /* W: sum of amp_i */
    uint16_t sum;      /* sum of the SUM players' amp_i */
    uint8_t loudest;   /* largest amp_i of the MAX players */
    uint8_t brake;     /* a player on the channel requests the brake */
} hb_mix;

void hb_mix_clear(hb_mix *m);

/* A contributing player's amp_i (> 0) and sharp_i, mixed by SUM or MAX. */
void hb_mix_add(hb_mix *m, uint8_t amp, uint8_t sharp, uint8_t sum_mode);

/* The channel's sample: (max(min(255, sum), loudest), round(weighted / W), 0) when its amp is
 * above 0; else the brake sample (0, 0, 1) if a player brakes on it, else (0, 0, 0). */
hb_sample hb_mix_sample(const hb_mix *m);

/* D_i at step n (3.6): the least m'(duck_j) over the sounding players j of `pool` on pl's channel
 * with a higher priority; 256 when there is none. */
uint16_t hb_mix_duck_gain(const hb_player *pool, uint8_t count, const hb_player *pl, uint32_t n);

/* The limiter on the channel's output (3.6, 1.12): counts amp >= threshold in *full; returns 1
 * (and restarts the count) when it passes safety_ticks. */
uint8_t hb_mix_limiter(uint32_t *full, uint8_t amp, uint8_t threshold, uint32_t safety_ticks);

#endif
