/* The mixing rule, ducking, the brake rule and the channel limiter (PROTOCOL-3.md 3.6). */
#include "hb_mix.h"

void hb_mix_clear(hb_mix *m)
{
    m->weighted = 0;
    m->weight = 0;
    m->sum = 0;
    m->loudest = 0;
    m->brake = 0;
}

HB_NOINLINE void hb_mix_add(hb_mix *m, uint8_t amp, uint8_t sharp, uint8_t sum_mode)
{
    if (sum_mode) {
        m->sum = (uint16_t)(m->sum + amp);
    } else if (amp > m->loudest) {
        m->loudest = amp;
    }
    m->weight = (uint16_t)(m->weight + amp);
    m->weighted += (uint32_t)amp * sharp;
}

hb_sample hb_mix_sample(const hb_mix *m)
{
    hb_sample s;
    uint8_t amp = m->sum > 255u ? 255u : (uint8_t)m->sum;
    if (m->loudest > amp) {
        amp = m->loudest;
    }
    s.amp = amp;
    s.sharp = 0;
    s.flags = 0;
    if (amp == 0u) {
        s.flags = m->brake ? HB_SAMPLE_BRAKE : 0u;
    } else {
        /* the amplitude-weighted mean, rounded half up; one player: its own sharpness */
        s.sharp = (uint8_t)((m->weighted + m->weight / 2u) / m->weight);
    }
    return s;
}

uint16_t hb_mix_duck_gain(const hb_player *pool, uint8_t count, const hb_player *pl, uint32_t n)
{
    uint16_t gain = 256;
    uint8_t j;
    for (j = 0; j < count; j++) {
        const hb_player *q = &pool[j];
        if (q != pl && q->channel == pl->channel && q->priority > pl->priority && hb_player_sounding(q, n)) {
            uint16_t d = (uint16_t)(q->duck + (q->duck >> 7));
            if (d < gain) {
                gain = d;
            }
        }
    }
    return gain;
}

uint8_t hb_mix_limiter(uint32_t *full, uint8_t amp, uint8_t threshold, uint32_t safety_ticks)
{
    if (amp < threshold) {
        *full = 0;
        return 0;
    }
    if (*full != 0xFFFFFFFFu) {
        (*full)++;
    }
    if (*full > safety_ticks) {
        *full = 0;
        return 1;
    }
    return 0;
}
