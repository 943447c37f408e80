/* The tick trim's accumulator (PROTOCOL-3.md 3.10). */
#include "hb_trim.h"

#define PPM ((int32_t)1000000)

void hb_trim_init(hb_trim *trim)
{
    trim->acc = 0;
}

uint8_t hb_trim_valid(int32_t ppm)
{
    return (uint8_t)(ppm >= -HB_TRIM_MAX_PPM && ppm <= HB_TRIM_MAX_PPM);
}

int16_t hb_trim_tick(hb_trim *trim, uint16_t period, int16_t ppm)
{
    /* |period * ppm| <= 65,535 * 10,000 < 2^31 - 10^6, so acc + it fits an int32 */
    int32_t acc = trim->acc + (int32_t)period * (int32_t)ppm;
    int32_t delta = acc / PPM;
    if (acc % PPM < 0) { /* C truncates toward zero; the rule floors */
        delta--;
    }
    trim->acc = acc - delta * PPM;
    return (int16_t)delta;
}
