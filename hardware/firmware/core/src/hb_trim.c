/* The tick trim's accumulator (PROTOCOL-3.md 3.10), in 32-bit integers for any period: P * tau
 * (up to 2^32 * 10^4) is never formed whole; P is split as q * 10^6 + r1 * 10^3 + r0, whose parts'
 * whole millions go straight into delta and whose remainders stay below 2^31 in acc. */
#include "hb_trim.h"

#define PPM ((int32_t)1000000)
#define THOUSAND ((int32_t)1000)

/* floor(a / b) and a - b * floor(a / b) (C's / truncates toward zero; the rule floors). */
static int32_t floor_div(int32_t a, int32_t b, int32_t *mod)
{
    int32_t q = a / b, m = a % b;
    if (m < 0) {
        q--;
        m += b;
    }
    *mod = m;
    return q;
}

void hb_trim_init(hb_trim *trim)
{
    trim->acc = 0;
}

uint8_t hb_trim_valid(int32_t ppm)
{
    return (uint8_t)(ppm >= -HB_TRIM_MAX_PPM && ppm <= HB_TRIM_MAX_PPM);
}

int32_t hb_trim_tick(hb_trim *trim, uint32_t period, int16_t ppm)
{
    int32_t q = (int32_t)(period / 1000000u), r = (int32_t)(period % 1000000u);
    int32_t part, rest, delta;
    /* P * tau = q * tau * 10^6 + (r / 10^3) * tau * 10^3 + (r mod 10^3) * tau */
    delta = q * ppm + floor_div((r / THOUSAND) * ppm, THOUSAND, &part);
    delta += floor_div(trim->acc + part * THOUSAND + (r % THOUSAND) * ppm, PPM, &rest);
    trim->acc = rest;
    return delta;
}
